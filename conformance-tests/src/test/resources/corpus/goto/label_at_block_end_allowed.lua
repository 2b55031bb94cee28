-- a label at the end of a block is allowed even after local declarations
do
  goto finish
  local unused = 1
  ::finish::
end
print("ok")
