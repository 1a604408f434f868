/**
 * The processing-element SPI: what a PE author's code depends on. This module depends on the JDK only.
 *
 * <p>A user contributes {@link io.steadfast.api.operator.OperatorType}s through an
 * {@link io.steadfast.api.operator.OperatorProvider}. A keyed operator's
 * {@link io.steadfast.api.PeFactory} creates one {@link io.steadfast.api.ProcessingElement} per distinct key
 * (S4 semantics); the PE keeps its durable data in runtime-owned state handles and emits through its
 * {@link io.steadfast.api.PeContext}.
 */
package io.steadfast.api;
