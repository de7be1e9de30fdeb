package main

import goruntime "runtime"

var goosForTest = goruntime.GOOS
