-- require and package are available; standard modules are preloaded
print(type(require), type(package), type(package.loaded))
print(package.loaded.string == string, require("string") == string)
