-- zero and negative integers are ordinary keys, not part of the sequence
local t = {[0] = "zero", [-1] = "minus one", "one"}
print(t[0], t[-1], t[1], #t)
