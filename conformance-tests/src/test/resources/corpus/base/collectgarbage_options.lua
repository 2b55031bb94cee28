-- collectgarbage returns numbers for count and 0 for a full collect
print(collectgarbage())
print(collectgarbage("collect"))
print(type(collectgarbage("count")))
print(pcall(collectgarbage, "bogus"))
