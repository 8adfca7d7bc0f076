/**
 * Targets made of several services (a web application and its database): started in dependency order, each where its
 * environment places it, on a labelled user-defined network of the environment's own when they are containers on a
 * bridge, and stopped in the reverse order with everything made for them. The recipe's side is
 * {@link io.envbench.base.recipe.ServiceRecipe}; what runs is {@link io.envbench.base.recipe.ServicesTarget}.
 */
package io.envbench.launch.services;
