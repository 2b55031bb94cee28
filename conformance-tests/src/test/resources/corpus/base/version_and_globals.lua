-- _VERSION and standard global tables
print(_VERSION)
print(type(string), type(table), type(math), type(coroutine), type(utf8))
print(type(_G), _G == _ENV)
