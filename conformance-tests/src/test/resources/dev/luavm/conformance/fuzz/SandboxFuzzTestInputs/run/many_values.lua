local a = {} for i = 1, 300 do a[#a + 1] = i end print(select("#", table.unpack(a)))
local function v(...) return select("#", ...), ... end print(v(table.unpack(a, 1, 250)))
