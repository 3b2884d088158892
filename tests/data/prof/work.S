/*
 * work.S: three procedures of known weight, for pmprof (tests/
 * 80-pmprof.bats).  _start calls slow (a chain of 4 dependent imuls) and
 * fast (2) N times; given any argument, it calls slow three times a
 * round instead of once: an injected slowdown of one procedure in the
 * same binary, for pmprof diff.  -DPAD=n puts n bytes before slow: another
 * build whose procedures are at other addresses.
 */
#ifndef N
#define N 3000
#endif
	.text
	.globl	_start, slow, fast
	.type	_start, @function
_start:
	mov	(%rsp), %r8		/* argc */
	mov	$N, %ecx
	mov	$3, %eax
	mov	$5, %ebx
1:	call	slow
	call	fast
	cmp	$1, %r8
	je	2f
	call	slow
	call	slow
2:	dec	%ecx
	jnz	1b
	mov	$60, %eax
	xor	%edi, %edi
	syscall
	.size	_start, . - _start

#ifdef PAD
	.fill	PAD, 1, 0x90
#endif
	.type	slow, @function
slow:
	imul	%rax, %rax
	imul	%rax, %rax
	imul	%rax, %rax
	imul	%rax, %rax
	ret
	.size	slow, . - slow

	.type	fast, @function
fast:
	imul	%rbx, %rbx
	imul	%rbx, %rbx
	ret
	.size	fast, . - fast
