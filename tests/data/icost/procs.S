/*
 * procs.S: two procedures of multiply chains, for icost -e proc= (tests/
 * 60-icost.bats).  _start calls slow (4 dependent imuls) and fast (2) N
 * times; _start itself has no multi-cycle operation, so idealizing lgalu
 * in slow and in fast together is idealizing lgalu everywhere.
 */
#ifndef N
#define N 2000
#endif
	.text
	.globl	_start, slow, fast
	.type	_start, @function
_start:
	mov	$N, %ecx
	mov	$3, %eax
	mov	$5, %ebx
1:	call	slow
	call	fast
	dec	%ecx
	jnz	1b
	mov	$60, %eax
	xor	%edi, %edi
	syscall
	.size	_start, . - _start

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
