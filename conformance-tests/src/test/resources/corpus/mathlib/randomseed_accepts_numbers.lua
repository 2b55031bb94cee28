-- randomseed makes the sequence repeatable (values compared, not printed)
math.randomseed(42)
local a = {math.random(1000), math.random(1000)}
math.randomseed(42)
local b = {math.random(1000), math.random(1000)}
print(a[1] == b[1], a[2] == b[2])
