-- __newindex as a table redirects the assignment to that table
local store = {}
local t = setmetatable({}, {__newindex = store})
t.x = 1
print(rawget(t, "x"), store.x)
