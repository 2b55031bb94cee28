-- a negative step counts down
for i = 3, 1, -1 do print(i) end
for i = 1.0, 0, -0.5 do print(i) end
for i = 1, 3, -1 do print("never") end
