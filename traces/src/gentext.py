#!/usr/bin/python3
# gentext.py: writes a fixed pseudo-random English-like text (about 1 MB) to
# stdout, the common input of the bundled traces.  A 64-bit LCG with a
# fixed seed makes it the same on every machine and Python version.
import sys

WORDS = """the of and to in is that it was for on are as with his they at be
this from have or by one had not but what all were when we there can an your
which their said if do will each about how up out them then she many some so
these would other into has more her two like him see time could no make than
first been its who now people my made over did down only way find use may
water long little very after words called just where most know get through
back much before go good new write our used me man too any day same right
look think also around another came come work three word must because does
part even place well such here take why things help put years different
away again off went old number great tell men say small every found still
between name should home big give air line set own under read last never us
left end along while might next sound below saw something thought both few
those always looked show large often together asked house world going want
school important until form food keep children feet land side without boy
once animals life enough took sometimes four head above kind began almost
live page got earth need far hand high year mother light parts country
father let night following picture being study second eyes soon times story
boys since white days ever paper hard near sentence better best across
during today others however sure means knew try told young miles sun ways
thing whole hear example heard several change answer room sea against top
turned learn point city play toward five using himself usually""".split()

x = 0x853C49E6748FEA9B
out = []
n = 0
line = []
while n < 1_000_000:
    x = (x * 6364136223846793005 + 1442695040888963407) & (2**64 - 1)
    w = WORDS[(x >> 33) % len(WORDS)]
    if (x >> 20) % 97 == 0:
        w = w + "ing"
    line.append(w)
    if (x >> 10) % 13 == 0:
        s = " ".join(line) + ".\n"
        out.append(s[0].upper() + s[1:])
        n += len(s)
        line = []
sys.stdout.write("".join(out))
