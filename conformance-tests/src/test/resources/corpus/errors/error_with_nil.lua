-- error(nil) and error() raise nil
print(pcall(error, nil))
print(pcall(error))
print(select("#", pcall(error)))
