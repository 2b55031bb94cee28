-- calling an undefined global names it
print(pcall(function() undefinedfunc() end))
