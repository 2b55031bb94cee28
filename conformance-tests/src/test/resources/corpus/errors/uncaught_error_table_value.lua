-- an uncaught table error value without __tostring
print("x")
error({})
