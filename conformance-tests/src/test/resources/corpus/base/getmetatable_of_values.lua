-- only strings have a metatable by default
print(getmetatable("") ~= nil, getmetatable(1), getmetatable(nil), getmetatable({}))
print(getmetatable(setmetatable({}, {__metatable = false})))
