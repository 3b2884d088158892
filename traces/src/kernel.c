/*
 * kernel.c: the C file that cc1 compiles for the bundled trace.  It has no
 * #include, so that cc1 can run on it alone, without the driver.
 */
typedef unsigned long size_t;
typedef unsigned int u32;
typedef unsigned long long u64;

static u32 crc_table[256];

static void
crc_init(void)
{
	u32 c, n, k;

	for (n = 0; n < 256; n++) {
		c = n;
		for (k = 0; k < 8; k++)
			c = c & 1 ? 0xedb88320u ^ (c >> 1) : c >> 1;
		crc_table[n] = c;
	}
}

u32
crc32(const unsigned char *p, size_t n)
{
	u32 c = 0xffffffffu;

	if (crc_table[1] == 0)
		crc_init();
	while (n--)
		c = crc_table[(c ^ *p++) & 0xff] ^ (c >> 8);
	return c ^ 0xffffffffu;
}

struct node {
	struct node *left, *right;
	u64 key;
	int height;
};

static int
height(const struct node *n)
{
	return n ? n->height : 0;
}

static int
max(int a, int b)
{
	return a > b ? a : b;
}

static struct node *
rotate_right(struct node *y)
{
	struct node *x = y->left;

	y->left = x->right;
	x->right = y;
	y->height = max(height(y->left), height(y->right)) + 1;
	x->height = max(height(x->left), height(x->right)) + 1;
	return x;
}

static struct node *
rotate_left(struct node *x)
{
	struct node *y = x->right;

	x->right = y->left;
	y->left = x;
	x->height = max(height(x->left), height(x->right)) + 1;
	y->height = max(height(y->left), height(y->right)) + 1;
	return y;
}

struct node *
avl_insert(struct node *n, struct node *fresh)
{
	int bal;

	if (n == 0) {
		fresh->height = 1;
		return fresh;
	}
	if (fresh->key < n->key)
		n->left = avl_insert(n->left, fresh);
	else
		n->right = avl_insert(n->right, fresh);
	n->height = 1 + max(height(n->left), height(n->right));
	bal = height(n->left) - height(n->right);
	if (bal > 1 && fresh->key < n->left->key)
		return rotate_right(n);
	if (bal < -1 && fresh->key >= n->right->key)
		return rotate_left(n);
	if (bal > 1) {
		n->left = rotate_left(n->left);
		return rotate_right(n);
	}
	if (bal < -1) {
		n->right = rotate_right(n->right);
		return rotate_left(n);
	}
	return n;
}

void
matmul(int n, const double *a, const double *b, double *c)
{
	int i, j, k;

	for (i = 0; i < n; i++)
		for (j = 0; j < n; j++) {
			double s = 0;

			for (k = 0; k < n; k++)
				s += a[i * n + k] * b[k * n + j];
			c[i * n + j] = s;
		}
}

static void
swap(u64 *a, u64 *b)
{
	u64 t = *a;

	*a = *b;
	*b = t;
}

void
quicksort(u64 *v, long lo, long hi)
{
	while (lo < hi) {
		u64 p = v[(lo + hi) / 2];
		long i = lo, j = hi;

		while (i <= j) {
			while (v[i] < p)
				i++;
			while (v[j] > p)
				j--;
			if (i <= j)
				swap(&v[i++], &v[j--]);
		}
		if (j - lo < hi - i) {
			quicksort(v, lo, j);
			lo = i;
		} else {
			quicksort(v, i, hi);
			hi = j;
		}
	}
}

u64
fnv1a(const char *s)
{
	u64 h = 14695981039346656037ull;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211ull;
	return h;
}
