-- a tail call returns every value of the called function
local function three() return 1, 2, 3 end
local function tail() return three() end
print(tail())
print(select("#", tail()))
