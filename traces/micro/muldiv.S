/*
 * muldiv.S: a dependent chain of multiplies and a divide.  Each of N
 * iterations multiplies rax by 3 four times, then divides by 81, which
 * gives rax back (5): 4 + 8N + 3 instructions, 4N imul and N div, all on
 * one dependence chain, so the loop runs at 4 multiply latencies plus one
 * divide latency per iteration.
 */
#ifndef N
#define N 100000
#endif
	.globl	_start
	.text
_start:
	mov	$N, %ecx
	mov	$5, %eax
	mov	$3, %ebx
	mov	$81, %esi
1:	imul	%rbx, %rax
	imul	%rbx, %rax
	imul	%rbx, %rax
	imul	%rbx, %rax
	xor	%edx, %edx
	div	%rsi
	dec	%ecx
	jnz	1b
	mov	$60, %eax		/* exit(0) */
	xor	%edi, %edi
	syscall
