-- ipairs iterates 1..n and stops at the first nil
local t = {"a", "b", nil, "d"}
for i, v in ipairs(t) do print(i, v) end
