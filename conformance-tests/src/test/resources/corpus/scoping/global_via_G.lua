-- _G holds the global table and _G._G is itself
print(_G._G == _G)
newglobal = 1
print(_G.newglobal)
_G["dyn" .. "amic"] = "made"
print(dynamic)
