-- 'return (f())' is not a tail call and keeps only one value
local function two() return "a", "b" end
local function wrapped() return (two()) end
print(wrapped())
