-- sorting a larger deterministic sequence
local t = {}
local x = 7
for i = 1, 1000 do x = (x * 31 + 11) % 1009; t[i] = x end
table.sort(t)
local ok = true
for i = 2, #t do if t[i - 1] > t[i] then ok = false end end
print(ok, t[1], t[500], t[1000])
