-- error objects may be tables; they are passed unchanged
local ok, e = pcall(function() error({code = 42, msg = "custom"}) end)
print(ok, type(e), e.code, e.msg)
