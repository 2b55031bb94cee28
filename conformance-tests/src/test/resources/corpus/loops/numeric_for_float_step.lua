-- a float step makes the loop variable a float
for i = 0, 1, 0.25 do print(i) end
for i = 1, 2, 0.5 do print(math.type(i)) end
