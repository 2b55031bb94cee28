-- jumping forward into the scope of a local is an error
print(load("goto l; local x = 1; ::l:: print(x)"))
