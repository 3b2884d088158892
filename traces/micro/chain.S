/*
 * chain.S: a dependent chain of 1-cycle integer ops.  Each of N iterations
 * adds 1 to rax eight times (every add waits for the previous one), then
 * counts down rcx: 2 + 10N + 3 instructions, N conditional branches of
 * which N - 1 are taken.  An out-of-order core runs it at one add per
 * cycle whatever its width: IPC = 10/8 at best.
 */
#ifndef N
#define N 200000
#endif
	.globl	_start
	.text
_start:
	mov	$N, %ecx
	xor	%eax, %eax
1:	add	$1, %rax
	add	$1, %rax
	add	$1, %rax
	add	$1, %rax
	add	$1, %rax
	add	$1, %rax
	add	$1, %rax
	add	$1, %rax
	dec	%ecx
	jnz	1b
	mov	$60, %eax		/* exit(0) */
	xor	%edi, %edi
	syscall
