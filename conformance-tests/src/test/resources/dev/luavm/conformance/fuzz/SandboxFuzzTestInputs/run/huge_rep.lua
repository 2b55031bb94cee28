string.rep("x", 1 << 40)
