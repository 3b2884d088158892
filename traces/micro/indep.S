/*
 * indep.S: fully independent 1-cycle integer ops.  Each of N iterations
 * adds 1 to eight different registers, then counts down rcx: 2 + 10N + 3
 * instructions, N conditional branches, N - 1 taken.  The adds depend
 * only on the same register one iteration earlier, so a wide core runs
 * them at its issue width.
 */
#ifndef N
#define N 200000
#endif
	.globl	_start
	.text
_start:
	mov	$N, %ecx
	xor	%eax, %eax
1:	add	$1, %r8
	add	$1, %r9
	add	$1, %r10
	add	$1, %r11
	add	$1, %r12
	add	$1, %r13
	add	$1, %r14
	add	$1, %r15
	dec	%ecx
	jnz	1b
	mov	$60, %eax		/* exit(0) */
	xor	%edi, %edi
	syscall
