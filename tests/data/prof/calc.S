/*
 * calc.S: pmprof calc's test program.  One loop of N iterations over a
 * buffer, a new 64-byte line each time (every load misses the L1-D but
 * with --ideal=dmiss):
 *
 *	load rax		the load
 *	add  rax, rbx		waits for it: a register dependency on the load
 *	add  1, rdx		independent: issues with the add
 *	imul rdx, rdi		waits for rdx
 *	add  rdi, r8		waits for the multiply's latency
 *	add  64, rsi
 *	dec  ecx
 *	jnz  1b
 *
 * 3 + 8N + 3 instructions.  The static stalls (alpha21164: L1-D hit 2
 * cycles, multiply 12) have known culprits; the loop runs N times.
 */
#ifndef N
#define N 20000
#endif
	.globl	_start
	.type	_start, @function
	.text
_start:
	mov	$N, %ecx
	lea	buf(%rip), %rsi
	xor	%edx, %edx
	.p2align 4
1:	mov	(%rsi), %rax
	add	%rax, %rbx
	add	$1, %rdx
	imul	%rdx, %rdi
	add	%rdi, %r8
	add	$64, %rsi
	dec	%ecx
	jnz	1b
	mov	$60, %eax		/* exit(0) */
	xor	%edi, %edi
	syscall
	.size	_start, . - _start

	.bss
	.p2align 6
buf:	.zero	64 * N
