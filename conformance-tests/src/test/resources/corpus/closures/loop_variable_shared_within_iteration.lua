-- closures created in the same iteration share that iteration's variable
local getters, setters = {}, {}
for i = 1, 2 do
  local v = i * 10
  getters[i] = function() return v end
  setters[i] = function(x) v = x end
end
setters[1](99)
print(getters[1](), getters[2]())
