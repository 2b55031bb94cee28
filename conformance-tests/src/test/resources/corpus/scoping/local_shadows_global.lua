-- a local declaration shadows a global of the same name
x = "global"
local x = "local"
print(x, _G.x)
