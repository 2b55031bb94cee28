-- integer start and step with a float limit: the loop stays integer (limit floored)
for i = 1, 3.7 do print(i, math.type(i)) end
for i = 3, 1.2, -1 do print(i) end
for i = 1, math.huge do if i > 3 then break end print("inf limit", i) end
