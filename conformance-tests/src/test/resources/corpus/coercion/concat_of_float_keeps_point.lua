-- converting an integral float to a string keeps '.0'
local x = 10 / 2
print(x .. "", "" .. 5 // 1, "" .. 5.0 // 1)
