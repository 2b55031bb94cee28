-- a step that would overflow past the limit stops the loop
local n = 0
for i = 1, math.maxinteger, math.maxinteger // 2 do n = n + 1; print(i) end
print(n)
for i = math.maxinteger, math.maxinteger - 1, math.maxinteger do print("never") end
print("done")
