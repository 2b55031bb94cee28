-- a local function is not visible outside its block
do
  local function helper() return "helper" end
  print(helper())
end
print(helper)
