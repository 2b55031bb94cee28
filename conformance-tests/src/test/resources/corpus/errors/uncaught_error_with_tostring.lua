-- the standalone interpreter uses __tostring for uncaught error objects
print("x")
error(setmetatable({}, {__tostring = function() return "custom error object" end}))
