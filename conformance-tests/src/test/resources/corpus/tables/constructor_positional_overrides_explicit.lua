-- positional items are stored after explicit [1]= keys (PUC order)
local t = {[1] = "explicit", "positional"}
print(t[1])
