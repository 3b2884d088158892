# loop.S: a known loop for pmtrace tests.  It sums arr[0..N) (arr[i] = 3i)
# into sum: 3 + 4N + 4 instructions, N conditional branches (N-1 taken),
# N loads of arr with known values, one store.
	.globl	_start
	.text
_start:
	lea	arr(%rip), %rsi
	mov	$N, %ecx
	xor	%eax, %eax
1:	add	(%rsi), %rax
	add	$8, %rsi
	dec	%ecx
	jnz	1b
	mov	%rax, sum(%rip)
	mov	$60, %eax
	xor	%edi, %edi
	syscall
	.data
	.balign	8
arr:
	.set	i, 0
	.rept	N
	.quad	i * 3
	.set	i, i + 1
	.endr
sum:	.quad	0
