package io.changelake.store;

/**
 * What a store knows of one object.
 *
 * @param path the path relative to the store's root
 * @param size the size in bytes
 * @param lastModifiedMillis the last modification time, in epoch milliseconds
 */
public record ObjectInfo(String path, long size, long lastModifiedMillis) {}
