-- integer numeric for: inclusive bounds, default step 1
for i = 1, 3 do print(i, math.type(i)) end
for i = 3, 1 do print("never") end
for i = 5, 5 do print("once", i) end
