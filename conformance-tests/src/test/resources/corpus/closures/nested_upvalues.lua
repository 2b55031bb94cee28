-- a closure can capture a variable of an enclosing-enclosing function
local function outer()
  local a = 1
  return function()
    local b = 10
    return function()
      a = a + 1
      b = b + 1
      return a + b
    end
  end
end
local f = outer()()
print(f(), f())
