/** The consumer application as a module: it requires the luavm bundle and reaches only its API. */
module com.example.consumer {
    requires dev.luavm.all;
}
