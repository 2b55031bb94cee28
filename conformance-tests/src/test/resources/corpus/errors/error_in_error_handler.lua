-- an error inside the message handler yields a C stack overflow-style error object
local ok, e = xpcall(function() error("first") end, function(m) error("second") end)
print(ok, type(e))
