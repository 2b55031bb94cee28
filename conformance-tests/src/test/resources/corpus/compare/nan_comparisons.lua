-- NaN is unequal to everything, including itself; all orderings are false
local nan = 0/0
print(nan == nan, nan ~= nan)
print(nan < 1, nan > 1, nan <= 1, nan >= 1)
print(nan < nan, nan <= nan)
print(not (nan < 1) and not (nan >= 1))
