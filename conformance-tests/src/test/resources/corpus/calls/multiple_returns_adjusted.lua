-- return values are adjusted to the context
local function mr() return 1, 2, 3 end
local x = mr()
print(x)
print(mr(), "last")
print("first", mr())
local t = {mr(), mr()}
print(#t)
