-- upvalues are variables, not copies: later changes are visible
local x = 1
local function get() return x end
x = 2
print(get())
local function set() x = 3 end
set()
print(x)
