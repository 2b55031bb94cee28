-- type returns the basic type name
print(type(nil), type(1), type(1.5), type("s"), type({}))
print(type(print), type(function() end), type(coroutine.create(function() end)))
print(type(io.stdout))
print(pcall(type))
