-- yielding from the main thread is an error
print(pcall(coroutine.yield, 1))
