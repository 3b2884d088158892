/* threads.c: a program that starts a second thread, which pmtrace must
 * refuse clearly rather than interleave. */
#include <pthread.h>
#include <stdio.h>

static void *
work(void *arg)
{
	return arg;
}

int
main(void)
{
	pthread_t t;

	if (pthread_create(&t, NULL, work, NULL) != 0)
		return 2;
	pthread_join(t, NULL);
	puts("joined");
	return 0;
}
