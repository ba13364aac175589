// placeholder so the library has a source; removed when real code lands
