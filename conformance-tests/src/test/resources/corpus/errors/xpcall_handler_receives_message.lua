-- xpcall calls the handler with the error value and returns its result
local function handler(m) return "handled: " .. m end
print(xpcall(function() error("oops") end, handler))
print(xpcall(function() error("oops", 0) end, handler))
