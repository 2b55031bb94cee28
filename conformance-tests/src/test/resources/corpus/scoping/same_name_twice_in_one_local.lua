-- 'local a, a = 1, 2': the last one wins
local a, a = 1, 2
print(a)
