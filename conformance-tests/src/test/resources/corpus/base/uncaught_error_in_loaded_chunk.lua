-- an uncaught error inside a loaded chunk reports the chunk name
print("x")
load("local a = nil; return a.b", "=loaded")()
