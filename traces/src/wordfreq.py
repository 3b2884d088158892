# wordfreq.py: the python3 workload of the bundled trace: count the words
# of the text on standard input and print the 20 most frequent.
import sys
from collections import Counter

c = Counter()
for line in sys.stdin:
    for w in line.lower().split():
        c[w.strip(".")] += 1
for w, n in c.most_common(20):
    print(n, w)
