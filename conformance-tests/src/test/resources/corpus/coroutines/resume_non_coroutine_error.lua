-- resume and status require a coroutine
print(pcall(coroutine.resume, 1))
print(pcall(coroutine.status, {}))
print(pcall(coroutine.create, 1))
